#pragma once
// A bounding-volume hierarchy of swept k-DOPs: each leaf is one triangle, its k-DOP the k-DOP of
// its three vertices at the start and at the end of the motion (conservative for linear vertex
// motion: each vertex stays on the segment between its two positions, inside the convex hull).
// The directions are the reference's orientation set (orientations.hpp, the first k/2 of them);
// each projection is widened by a bound on its rounding error, so the k-DOP contains the exact
// swept volume.
//
// The topology (which triangles under which node) is built once, by a median split over the
// triangles' swept-box centres, and refitted bottom-up for every new motion (a deforming mesh's
// next frame interval). Refitting can loosen a node whose triangles have drifted apart;
// restructure() rebuilds the subtrees whose volume has grown past a ratio of the volume they had
// when built (the selective restructuring of Kim et al. 2009, HPCCD). docs/ccd.md.
//
// The bounds are stored as floats, each rounded outward from the double bound (a minimum down, a
// maximum up), so they still contain the exact swept volume: the self-collision traversal of a
// 92k-triangle cloth tests about 2 million node pairs per interval, and half the bytes per k-DOP
// keep more of the 13 MB of node bounds in cache (docs/ccd.md, "Figures").
//
// A tree made for self-collision (`SweptTree::Use::self_collision`) also keeps, per node, its
// patch's boundary cycle (after each build and restructure) and the sign bits of its triangles'
// normals (after each refit), for the patch culling of patch_culling.hpp.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "kdopcd/ccd/patch_culling.hpp"
#include "kdopcd/ccd/topology.hpp"
#include "kdopcd/vec.hpp"

namespace kdopcd::ccd {

// Vertex positions at the two ends of one motion interval.
struct Motion {
  std::span<const Vec3> start, end;
};

inline constexpr int kMaxSweptHalf = 13;  // k <= 26

// Whether the hull of the k-DOPs `mine` and the hull of the k-DOPs `theirs` (each: min at [0,
// half), max at [half, 2 half)) are apart on one of the `half` directions. Four directions per
// step in vector lanes (GCC/Clang vector extensions: SSE on x86, plain code elsewhere), the rest
// one by one. Every bound is finite (check_motion), so the lanes' min, max and compares give the
// verdict of the scalar loop, which is all the node pairs and feature pairs of a query take:
// about a third of a cloth's self-collision time went into these tests one direction at a time.
template <std::size_t M, std::size_t N>
inline bool dops_apart(int half, const std::array<const float*, M>& mine, const std::array<const float*, N>& theirs) {
  using Lanes = float __attribute__((vector_size(16)));
  auto load = [](const float* p) {
    Lanes v;
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  int i = 0;
  for (; i + 4 <= half; i += 4) {
    Lanes lo_a = load(mine[0] + i), hi_a = load(mine[0] + half + i);
    for (std::size_t m = 1; m < M; ++m) {
      const Lanes lo = load(mine[m] + i), hi = load(mine[m] + half + i);
      lo_a = lo < lo_a ? lo : lo_a;
      hi_a = hi > hi_a ? hi : hi_a;
    }
    Lanes lo_b = load(theirs[0] + i), hi_b = load(theirs[0] + half + i);
    for (std::size_t n = 1; n < N; ++n) {
      const Lanes lo = load(theirs[n] + i), hi = load(theirs[n] + half + i);
      lo_b = lo < lo_b ? lo : lo_b;
      hi_b = hi > hi_b ? hi : hi_b;
    }
    const auto apart = (lo_a > hi_b) | (lo_b > hi_a);
    if (apart[0] | apart[1] | apart[2] | apart[3]) return true;
  }
  for (; i < half; ++i) {
    float lo_a = mine[0][i], hi_a = mine[0][half + i];
    for (std::size_t m = 1; m < M; ++m) {
      lo_a = std::min(lo_a, mine[m][i]);
      hi_a = std::max(hi_a, mine[m][half + i]);
    }
    float lo_b = theirs[0][i], hi_b = theirs[0][half + i];
    for (std::size_t n = 1; n < N; ++n) {
      lo_b = std::min(lo_b, theirs[n][i]);
      hi_b = std::max(hi_b, theirs[n][half + i]);
    }
    if (lo_a > hi_b || lo_b > hi_a) return true;
  }
  return false;
}

class SweptTree {
 public:
  struct Node {
    std::int32_t left = -1, right = -1;  // children; -1 for a leaf
    std::uint32_t triangle = 0;          // a leaf's triangle
    std::uint32_t first = 0, count = 0;  // the node's triangles: order()[first, first + count)
  };

  // What the tree is for: pairs only, or also self-collision (then it keeps the patch culling's
  // boundary cycles and normal sign bits).
  enum class Use { pairs, self_collision };

  SweptTree() = default;
  // Builds the topology over `motion` and fits it. k in {6, 14, 18, 24, 26}.
  SweptTree(const Topology& topology, const Motion& motion, int k, Use use);

  void refit(const Motion& motion);
  // Rebuilds every subtree whose refitted volume measure exceeds `ratio` times its measure at
  // build time (its largest extent over the k/2 directions); returns how many were rebuilt.
  std::size_t restructure(const Motion& motion, double ratio);

  int half() const { return half_; }
  int k() const { return 2 * half_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  // min at [node * 2 * half + i], max at [node * 2 * half + half + i].
  const float* dop(std::size_t node) const { return &dops_[node * 2 * std::size_t(half_)]; }
  bool overlap(const SweptTree& other, std::size_t a, std::size_t b) const {
    return !dops_apart(half_, std::array{dop(a)}, std::array{other.dop(b)});
  }
  const std::vector<std::uint32_t>& order() const { return order_; }
  std::span<const std::uint32_t> triangles(std::size_t node) const {
    return {order_.data() + nodes_[node].first, nodes_[node].count};
  }

  // Patch culling (self-collision trees only; has_patches() false for the others).
  bool has_patches() const { return use_ == Use::self_collision && !nodes_.empty(); }
  std::span<const std::uint32_t> boundary(std::size_t node) const { return boundaries_.of(node); }
  NormalSigns normal_signs(std::size_t node) const { return normal_signs_[node]; }
  // Vertex v's swept k-DOP of the last fit (min at [0, half), max at [half, k)): a leaf's k-DOP
  // is the hull of its three vertices' ones, and the feature filter of the query uses them too.
  const float* vertex_dop(std::uint32_t v) const { return &vertex_dops_[std::size_t(v) * 2 * std::size_t(half_)]; }

 private:
  void build_at(std::int32_t index, std::uint32_t first, std::uint32_t count, const std::vector<Vec3>& centres);
  void fit_vertices(const Motion& motion);
  void fit_leaf(std::size_t node);
  void fit_inner(std::size_t node);
  // Fits nodes [first, first + count) of one pre-order range (a whole subtree, or the part above
  // the parallel cut), children before parents.
  void fit_range_reverse(std::size_t first, std::size_t count);
  // The normal sign bits of the same range, children before parents (self-collision trees).
  void fit_normals_reverse(std::size_t first, std::size_t count, const Motion& motion);
  void make_boundaries();
  double extent(std::size_t node) const;

  const Topology* topology_ = nullptr;
  Use use_ = Use::pairs;
  int half_ = 0;
  std::vector<Vec3> directions_;
  std::vector<Node> nodes_;
  std::vector<float> dops_;
  std::vector<std::uint32_t> order_;
  std::vector<double> built_extent_;
  std::vector<float> vertex_dops_;
  PatchBoundaries boundaries_;
  std::vector<NormalSigns> normal_signs_;
  // The refit's parallel cut: subtrees (pre-order ranges) fitted each by one task, and the nodes
  // above them, in pre-order, fitted after them in reverse. Made at build and restructure time.
  std::vector<std::size_t> cut_roots_, cut_top_;
  void make_cut();
};

}  // namespace kdopcd::ccd
