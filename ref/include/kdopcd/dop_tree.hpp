#pragma once
// DOP-tree: binary, built top-down, one triangle per leaf, nodes in one array in pre-order
// (node 0 is the root, a node's left child follows it directly).
//
// Split rule (documented in docs/architecture.md): of the k/2 slab directions, take the one along
// which the node's triangle centroids spread most, and split the triangles at the median
// centroid projection (ties broken by triangle index). The tree is therefore balanced: depth
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
};

// Coefficients of the tightest k-DOP of the given points, rounded outward so that the DOP
// contains each point even though D_i . x is computed in floating point, then moved outward by
// `margin` (see DopTree::margin()).
void dop_of_points(const OrientationSet& set, std::span<const Vec3> points, std::span<double> out,
                   double margin = 0);

}  // namespace kdopcd
