#pragma once
// DOP-tree: binary, built top-down, one triangle per leaf, nodes in one array in pre-order
// (node 0 is the root, a node's left child follows it directly).
//
// Split rule (documented in docs/architecture.md): of the k/2 slab directions, take the one along
// which the node's triangle centroids spread most, and split the triangles at the median
// centroid projection (ties broken by triangle index). Centroids are taken relative to centre(),
// so the structure does not depend on where the file put the object. The tree is therefore balanced: depth
// <= ceil(log2(triangles)), which bounds the hardware stack and the GPU binary stack.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "kdopcd/mesh.hpp"
#include "kdopcd/orientations.hpp"
#include "kdopcd/root_bound.hpp"

namespace kdopcd {

struct DopNode {
  std::int32_t left = -1;      // child indices, -1 for a leaf
  std::int32_t right = -1;
  std::int32_t triangle = -1;  // mesh triangle of a leaf, -1 for an inner node
  std::int32_t depth = 0;      // root has depth 0
  bool is_leaf() const { return left < 0; }
};

// Data derived from one tree that a query needs for a given scene scale and bit widths (the
// fixed-point path's quantized coefficients and vertices). The scale depends on the pair of trees,
// so a tree keeps a few entries, each made on first use and then shared by every later query:
// quantizing both trees on every query cost more than the traversal itself. Thread-safe.
class DerivedCache {
 public:
  // The entry (kind, s, p1, p2), made by make() under the lock if missing (so make() must not
  // call get() of the same cache). `kind` names the
  // value's type for the caller (see sat_fixed.cpp, collide.cpp); a kind is always used with one T.
  // Distinct for every cache made in this process (addresses can be reused): a memo of values
  // fetched from this cache may key on it.
  std::uint64_t id() const { return id_; }

  template <class T>
  std::shared_ptr<const T> get(int kind, double s, int p1, int p2, const std::function<T()>& make) {
    std::lock_guard lock(mutex_);
    for (const Entry& e : entries_)
      if (e.kind == kind && e.s == s && e.p1 == p1 && e.p2 == p2) return std::static_pointer_cast<const T>(e.value);
    auto value = std::make_shared<const T>(make());
    // A tree meets few scales (one per partner size); the bound only keeps a long-running
    // process that pairs one tree with many others from growing without limit.
    if (entries_.size() >= kMaxEntries) entries_.erase(entries_.begin());
    entries_.push_back({kind, s, p1, p2, value});
    return value;
  }

 private:
  static constexpr std::size_t kMaxEntries = 32;
  struct Entry {
    int kind;
    double s;
    int p1, p2;
    std::shared_ptr<const void> value;
  };
  static std::uint64_t next_id() {
    static std::atomic<std::uint64_t> counter{0};
    return ++counter;
  }
  const std::uint64_t id_ = next_id();
  std::mutex mutex_;
  std::vector<Entry> entries_;
};

// How the tree is split. Sah is the software query's default (with DescentRule::Larger the
// fastest exact configuration of collide(), docs/benchmarks-fcl.md); the accelerator paths and
// the GPU build with kHardwareTreeBuild.
enum class TreeBuild {
  Median,  // the split rule above: balanced, depth <= ceil(log2(triangles))
  // Binned surface-area heuristic on DOP widths: of 16 bins of centroid projections on each of
  // the k/2 slab directions, the split minimising (sum of the k/2 widths of the left DOP) x
  // (left triangles) + the same for the right; the median split for fewer than 4 triangles or
  // when all centroids fall in one bin. Not balanced: deeper, but its DOPs overlap less
  // (MacDonald, Booth, "Heuristics for ray tracing using space subdivision", 1990, with the
  // width sum of a DOP in place of a box's surface area).
  Sah,
};
// The build of the trees the accelerator paths (tree images, the model, the RTL drivers) and the
// GPU take: balanced, so that a tree of n triangles is at most ceil(log2 n) deep, what the GPU's
// binary stack (31 levels a word) and the accelerator's pending set are sized and measured for.
inline constexpr TreeBuild kHardwareTreeBuild = TreeBuild::Median;
TreeBuild parse_tree_build(const std::string& name);  // "median" or "sah"; throws InputError
const char* to_string(TreeBuild build);

class DopTree {
 public:
  // Throws InputError for an empty mesh or unsupported k.
  DopTree(const Mesh& mesh, int k, TreeBuild build_rule = TreeBuild::Sah);

  int k() const { return k_; }
  const OrientationSet& orientations() const { return *set_; }
  const Mesh& mesh() const { return *mesh_; }
  const std::vector<DopNode>& nodes() const { return nodes_; }
  const DopNode& node(std::size_t i) const { return nodes_[i]; }
  TreeBuild build_rule() const { return build_; }
  // The size of node i's DOP: the sum of its widths along the k/2 slab directions, what
  // DescentRule::Larger compares.
  double size(std::size_t i) const { return sizes_[i]; }
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
  // The root DOP's smallest coefficient in the centred frame (negative where the centre lies
  // outside the DOP along that direction).
  double centred_smallest_coefficient() const { return centred_smallest_; }
  // The root DOP's pseudo-vertices (root_bound.hpp): a separated pose's quick exit.
  const RootPseudoVertices& root_pseudo_vertices() const { return root_vertices_; }

  // Per-scale derived data (see DerivedCache). A copy of the tree shares it: the data depend only
  // on the mesh and the tree's structure, which the copy shares too.
  DerivedCache& derived_cache() const { return *cache_; }

 private:
  int build(std::vector<std::uint32_t>& tris, std::size_t begin, std::size_t end, int depth);
  // TreeBuild::Sah: the split position in tris[begin, end) after partitioning, or 0 for "use the median".
  std::size_t sah_split(std::vector<std::uint32_t>& tris, std::size_t begin, std::size_t end);

  int k_;
  const OrientationSet* set_;
  const Mesh* mesh_;
  std::vector<DopNode> nodes_;
  std::vector<double> coeffs_;
  std::vector<Vec3> centroids_;
  TreeBuild build_ = TreeBuild::Sah;
  std::vector<double> triangle_dops_;  // TreeBuild::Sah only, during the build: raw DOP per triangle
  std::vector<double> sizes_;
  int max_depth_ = 0;
  double margin_ = 0;
  Vec3 centre_ = Vec3::Zero();
  double centred_largest_ = 0;
  double centred_smallest_ = 0;
  RootPseudoVertices root_vertices_;
  std::shared_ptr<DerivedCache> cache_ = std::make_shared<DerivedCache>();
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
