#pragma once
// Continuous collision detection between two moving meshes, or of one mesh with itself: the first
// time of contact t* in [0, 1] and every feature pair (vertex-face, edge-edge) that touches at t*.
// Every vertex moves linearly from its start to its end position (rigid motion: the two poses
// applied to each vertex; a deforming mesh: two consecutive frames). docs/ccd.md.
//
// ccd_pair / ccd_self: the tandem traversal of two swept-k-DOP trees (swept_tree.hpp), each leaf
// pair's feature pairs through a swept-box check and the exact elementary test (elementary.hpp).
// The traversal's front of node pairs is cut into tasks (tbb::parallel_for over the front, as in
// Kim et al. 2009, HPCCD); the answer does not depend on the number of threads (the contacts are
// sorted, the time is a minimum).
// brute_force_pair / brute_force_self: every feature pair tested directly (small meshes only).
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "kdopcd/ccd/elementary.hpp"
#include "kdopcd/ccd/swept_tree.hpp"
#include "kdopcd/ccd/topology.hpp"

namespace kdopcd::ccd {

// One touching feature pair. Vertex-face: ids = {vertex, triangle, -, -}, the vertex of object
// `vertex_object` (0 the first, 1 the second) and the triangle of the other. Edge-edge: ids =
// {a0, a1, b0, b1}, the first object's edge (a0 < a1) and the second's. In self-collision both
// are the one mesh, vertex_object = 0, and an edge-edge pair lists the smaller edge first.
struct FeatureContact {
  ElementaryKind kind = ElementaryKind::VertexFace;
  std::uint8_t vertex_object = 0;
  std::uint32_t ids[4] = {0, 0, 0, 0};
  friend bool operator==(const FeatureContact&, const FeatureContact&) = default;
  friend auto operator<=>(const FeatureContact& a, const FeatureContact& b) {
    if (a.kind != b.kind) return a.kind <=> b.kind;
    if (a.vertex_object != b.vertex_object) return a.vertex_object <=> b.vertex_object;
    for (int i = 0; i < 4; ++i)
      if (a.ids[i] != b.ids[i]) return a.ids[i] <=> b.ids[i];
    return std::strong_ordering::equal;
  }
};

struct CcdStats {
  std::uint64_t node_pairs = 0;        // k-DOP overlap tests
  std::uint64_t triangle_pairs = 0;    // overlapping leaf pairs
  std::uint64_t feature_pairs = 0;     // feature pairs whose swept boxes overlap
  std::uint64_t elementary_tests = 0;  // exact elementary tests run (after the swept-box check)
  std::uint64_t searched = 0;          // of them, past the relative-motion stage (the dyadic search ran)
  // Time intervals the filter left to exact arithmetic. Each thread's search stops at its own
  // earliest contact so far, so this count (alone) can vary with the number of threads.
  std::uint64_t exact_intervals = 0;
  // Self-collision: patches (a node against itself) proven free of contact and not descended
  // (patch_culling.hpp), and the triangles in them.
  std::uint64_t patches_culled = 0;
  std::uint64_t patch_tests = 0;  // patches past the guide whose normals or contour were then not proven
  std::uint64_t patch_triangles_culled = 0;
  CcdStats& operator+=(const CcdStats& o);
};

struct CcdResult {
  std::optional<double> time;              // t*, none when nothing touches in [0, 1]
  std::vector<FeatureContact> contacts;    // the pairs touching at t*, sorted
  CcdStats stats;
};

// One moving mesh: its topology and the positions at the two ends (world space).
struct MovingMesh {
  const Topology* topology = nullptr;
  Motion motion;
};

// The elementary tests' filter over a batch of feature pairs (e.g. on a GPU): times[i] =
// filtered_first_contact(kinds[i], points[i]) (a time, kNoContact or kNeedsExact), bit for bit.
// Called from several threads at once; each call's spans are its own.
using ElementaryFilterBatch = std::function<void(std::span<const ElementaryKind> kinds,
                                                 std::span<const ElementaryPoints> points, std::span<double> times)>;
// That batch on the host's threads (TBB).
void host_elementary_filter(std::span<const ElementaryKind> kinds, std::span<const ElementaryPoints> points,
                            std::span<double> times);

struct CcdOptions {
  int threads = 0;  // 0: all (TBB's default); 1: the calling thread only
  // Self-collision with a tree made for it: skip the patches that patch_culling.hpp proves free of
  // contact (the answer is the same; false descends into every patch, for comparisons).
  bool patch_culling = true;
  // Empty: each feature pair's elementary test runs where the traversal meets it, its search
  // stopped at the earliest contact its thread has found so far. Set: the traversal collects the
  // pairs (after the swept-box check) and hands them to this filter in batches of at most
  // `elementary_batch` per thread; the pairs it leaves undecided (kNeedsExact) go to first_contact
  // on the host. The same time and contacts; `searched` and `exact_intervals` then count the
  // host's part only.
  ElementaryFilterBatch elementary_filter = nullptr;
  std::size_t elementary_batch = std::size_t(1) << 14;
};

// Each tree must be fitted (built, refitted or restructured) to its mesh's motion, both of one k.
CcdResult ccd_pair(const MovingMesh& a, const SweptTree& tree_a, const MovingMesh& b, const SweptTree& tree_b,
                   const CcdOptions& options = {});
// Self-collision: adjacent features (a vertex of the face; edges that share a vertex) are skipped.
CcdResult ccd_self(const MovingMesh& mesh, const SweptTree& tree, const CcdOptions& options = {});

CcdResult brute_force_pair(const MovingMesh& a, const MovingMesh& b);
CcdResult brute_force_self(const MovingMesh& mesh);

// Throws InputError naming `what` when a position is not finite or the counts differ from the
// topology's.
void check_motion(const MovingMesh& mesh, const std::string& what);

}  // namespace kdopcd::ccd
