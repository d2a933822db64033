#pragma once
// DOP-tree: binary, built top-down, one triangle per leaf, nodes in one array in pre-order
// (node 0 is the root, a node's left child follows it directly).
//
// Split rule (documented in docs/architecture.md): of the k/2 slab directions, take the one along
// which the node's triangle centroids spread most, and split the triangles at the median
// centroid projection (ties broken by triangle index). Centroids are taken relative to centre(),
// so the structure does not depend on where the file put the object. The tree is therefore balanced: depth
// <= ceil(log2(triangles)), which bounds the hardware stack and the GPU binary stack.
#include <cstdint>
#include <span>
#include <vector>

#include "kdopcd/mesh.hpp"
#include "kdopcd/orientations.hpp"

namespace kdopcd {

struct DopNode {
  std::int32_t left = -1;      // child indices, -1 for a leaf
  std::int32_t right = -1;
  std::int32_t triangle = -1;  // mesh triangle of a leaf, -1 for an inner node
  std::int32_t depth = 0;      // root has depth 0
  bool is_leaf() const { return left < 0; }
};

class DopTree {
 public:
  DopTree(const Mesh& mesh, int k);  // throws InputError for an empty mesh or unsupported k

  int k() const { return k_; }
  const OrientationSet& orientations() const { return *set_; }
  const Mesh& mesh() const { return *mesh_; }
  const std::vector<DopNode>& nodes() const { return nodes_; }
  const DopNode& node(std::size_t i) const { return nodes_[i]; }
  std::size_t node_count() const { return nodes_.size(); }
  int max_depth() const { return max_depth_; }
  // The k coefficients of node i (distances along the unit directions).
  std::span<const double> coefficients(std::size_t i) const { return {coeffs_.data() + i * k_, std::size_t(k_)}; }
  const std::vector<double>& all_coefficients() const { return coeffs_; }
  // Largest |coefficient| over all nodes (the root's, since children are inside it).
  double largest_coefficient() const;
  // Every coefficient is moved outward by 2^-40 x the mesh's largest |vertex coordinate|. The
  // set-up (P, p), the placement of the second object and the float SAT each round in double;
  // their combined error is a few ulps of the coordinates, a thousand times below this margin,
  // so triangles that touch exactly are never culled by rounding. It adds no pair tests worth
  // measuring, and the fixed-point path quantizes far more coarsely anyway.
  double margin() const { return margin_; }

  // The fixed-point frame (docs/fixed-point.md §2): the fixed-point path stores this object
  // relative to centre() (object_centre of the mesh's vertices), so that its ranges follow the
  // object's size, never its distance from the file's origin. The float and exact backends keep
  // the file's coordinates (coefficients() above).
  const Vec3& centre() const { return centre_; }
  // Largest |coefficient| of the root DOP in the centred frame: the root of centred_coefficients().
  double centred_largest_coefficient() const { return centred_largest_; }

 private:
  int build(std::vector<std::uint32_t>& tris, std::size_t begin, std::size_t end, int depth);

  int k_;
  const OrientationSet* set_;
  const Mesh* mesh_;
  std::vector<DopNode> nodes_;
  std::vector<double> coeffs_;
  std::vector<Vec3> centroids_;
  int max_depth_ = 0;
  double margin_ = 0;
  Vec3 centre_ = Vec3::Zero();
  double centred_largest_ = 0;
};

// The origin of an object's fixed-point frame: the centre of the vertices' axis-aligned bounding
// box, snapped to the grid G = 2^(floor(log2 E) - 8), E the box's largest extent: per axis
// G (floor(lo / G) + round((lo - G floor(lo / G) + (hi - lo) / 2) / G)), about G/2 <= E/512 from
// the true centre at most. It moves with the object: translating every vertex by a multiple of G
// (exactly, in double) moves the centre by the same amount, so the centred coordinates stay
// bit-identical. For an object more than about 2^42 E from the origin (its coordinates then hold
// fewer than 10 bits across it) G grows to 2^-50 of its largest |coordinate|, so the centre stays
// a double near the box centre, no longer moving exactly with it. 0 for no vertices; the box's
// low corner when E is 0.
Vec3 object_centre(std::span<const Vec3> vertices);

// The coefficients of every node (tree.nodes() order, k per node) in the centred frame: the DOPs of
// the centred vertices fl(x - centre()), rounded outward for that subtraction and for D_i . y,
// then moved outward by 2^-40 x the largest |centred coordinate| (the margin() of the centred
// object). The node structure is the tree's own. Computed on demand (the fixed-point path
// quantizes it once per tree); the root's largest |value| is centred_largest_coefficient().
std::vector<double> centred_coefficients(const DopTree& tree);

// The vertex coordinates in the centred frame, fl(x - centre): what the tree image and the fixed
// backend quantize.
std::vector<Vec3> centred_vertices(const Mesh& mesh, const Vec3& centre);

// Coefficients of the tightest k-DOP of the given points, rounded outward so that the DOP
// contains each point even though D_i . x is computed in floating point, then moved outward by
// `margin` (see DopTree::margin()).
void dop_of_points(const OrientationSet& set, std::span<const Vec3> points, std::span<double> out,
                   double margin = 0);

}  // namespace kdopcd
