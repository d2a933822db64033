#pragma once
// Self-collision culling of whole patches (a subtree's triangles) by continuous normal cones and a
// contour test: Provot 1997 ("Collision and self-collision handling in cloth model dedicated to
// design garments"), Tang, Curtis, Yoon, Manocha 2009 ("ICCD: Interactive continuous collision
// detection between deformable models using connectivity-based culling"). docs/ccd.md, "Patch
// culling".
//
// A patch has no contact between two of its features that share no vertex, at any time of the
// interval, when for every t in [0, 1], seen along one fixed direction k:
//   (A) every triangle of the patch is strictly positively oriented (n(t) . k > 0, its normal
//       n(t) = (b - a) x (c - a) of the linearly moving vertices, a quadratic in t), and
//   (B) the patch's boundary (the directed edges of its triangles that no other triangle of the
//       patch traverses the other way) is one cycle whose projection along k is a simple closed
//       curve.
// Then the projection along k is one-to-one on the patch at every t: with every triangle positive,
// a point of the plane has as many preimages (each counted once, all with the same sign) as the
// boundary curve winds around it, at most one for a simple curve; two preimages of one point would
// give nearby generic points two. So two features of the patch that share no vertex (disjoint as
// simplices) never meet in space, and the traversal need not descend into the patch against
// itself. Adjacent features are skipped by self-collision anyway.
//
// Both conditions are decided rigorously: (A) on the Bernstein coefficients of n(t) . k in the
// filter arithmetic of the elementary tests (Ef, bernstein.hpp), (B) on the boundary edges'
// 2-D swept boxes (bounds with the same rounding bounds; two non-adjacent edges whose boxes overlap
// must keep one edge's ends strictly on one side of the other's line) and, for two consecutive
// edges, on their 2-D cross or dot product keeping one strict sign. Any doubt fails the test and
// the traversal descends as without it. Fourteen sign bits of the triangles' normals per node
// (refitted with the k-DOPs) only guide which nodes are tried and which direction k.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "kdopcd/ccd/topology.hpp"
#include "kdopcd/vec.hpp"

namespace kdopcd::ccd {

// Patches of fewer triangles are not tested: their self pairs are few and cheap.
inline constexpr std::uint32_t kMinPatchTriangles = 4;

// The boundary cycle of each node's patch, for the nodes of at least kMinPatchTriangles triangles
// whose boundary is one cycle of at least three vertices (empty for the others): the vertex ids in
// the order the triangles' edges run along it.
struct PatchBoundaries {
  std::vector<std::uint32_t> offsets;  // node i: vertices[offsets[i], offsets[i + 1])
  std::vector<std::uint32_t> vertices;
  std::span<const std::uint32_t> of(std::size_t node) const {
    return {vertices.data() + offsets[node], vertices.data() + offsets[node + 1]};
  }
};

// `first`/`count`: each node's triangles are order[first, first + count) (SweptTree::Node).
struct PatchNode {
  std::uint32_t first, count;
};
PatchBoundaries patch_boundaries(const Topology& topology, std::span<const PatchNode> nodes,
                                 std::span<const std::uint32_t> order);

// The guide: a bit per guide direction (kGuideDirections, each of the 7 in both signs) set when
// every normal of the patch, at both ends of the interval, has a positive component along it
// (in plain double arithmetic: a guide only, the rigorous test decides). A leaf's bits come from its
// triangle, a node's are its children's AND. A patch whose normals fit in a cone of half-angle
// below 54.7 degrees has a bit set (every unit vector is within 35.3 degrees of one of the 14).
using NormalSigns = std::uint16_t;
NormalSigns triangle_normal_signs(const Vec3& a0, const Vec3& b0, const Vec3& c0, const Vec3& a1, const Vec3& b1,
                                  const Vec3& c1);

// Working memory of patch_cannot_touch_itself (one per thread).
struct PatchScratch {
  struct Point {
    double q[2][2];  // projected coordinate c at t = 0 and t = 1 (less the common shift)
    double slack;    // a bound on the rounding error of each
  };
  std::vector<Point> points;
  struct Box {
    double lo[2], hi[2];
  };
  std::vector<Box> boxes;
  std::vector<std::uint32_t> sorted;
};

// What the test found: `free` only when (A) and (B) are proven.
enum class PatchVerdict : std::uint8_t {
  declined,          // no guide direction, or the patch has no single boundary cycle
  normals_unproven,  // (A) not proven for some triangle
  contour_unproven,  // (B) not proven for two boundary edges
  free,
};

// Conditions (A) and (B) over the interval of `start` -> `end`, for the patch of the triangles
// `triangles` with boundary cycle `boundary` and guide `signs` (k is its first direction).
PatchVerdict patch_cannot_touch_itself(const Topology& topology, std::span<const std::uint32_t> triangles,
                                       std::span<const std::uint32_t> boundary, NormalSigns signs,
                                       std::span<const Vec3> start, std::span<const Vec3> end, PatchScratch& scratch);

}  // namespace kdopcd::ccd
