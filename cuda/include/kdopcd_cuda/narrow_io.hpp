#pragma once
// The narrow phase's data on the host: the resident scene (trees and meshes, uploaded once and kept
// by an engine across queries), one query (tasks and their set-up), and what comes back
// (narrow_pipeline.hpp runs it).
#include <cstdint>
#include <vector>

#include "kdopcd/fixed_format.hpp"
#include "kdopcd/sat_fixed.hpp"
#include "kdopcd/traversal.hpp"
#include "kdopcd_cuda/layout.hpp"
#include "kdopcd_cuda/narrow.hpp"

namespace kdopcd::cuda {

// Trees and meshes. Tree t's mesh is meshes[t] (one tree per mesh); quantized trees (fixed SAT)
// are added per (tree, scene scale) as queries need them, which bumps `version` so that an engine
// uploads the scene again.
struct NarrowScene {
  int k = 0;
  std::vector<BsNode> nodes;
  std::vector<double> coefficients;
  std::vector<TreeInfo> trees;
  std::vector<std::int64_t> qcoefficients;
  std::vector<std::int32_t> qtrees;
  std::vector<double> vertices;          // x, y, z of every vertex of every mesh
  std::vector<std::int32_t> triangles;   // 3 vertex indices (local to the mesh) per triangle
  std::vector<MeshInfo> meshes;          // per tree
  // The orientation set of k (OrientationView's arrays, for the set-up step).
  std::vector<double> directions;
  std::vector<std::int32_t> triples;
  std::vector<double> inverse_transposed;
  std::vector<std::int32_t> own_triples;
  std::vector<std::uint32_t> cell_start;
  std::vector<std::uint8_t> cell_triples;
  std::int32_t triple_count = 0;
  std::uint64_t version = 0;
};

struct NarrowQuery {
  int axes_per_pair = 0;
  DescentRule rule = kHardwareDescentRule;
  SatKind sat = SatKind::Float;
  FixedParams fixed{};
  TraversalKind traversal = TraversalKind::BinaryStack;
  int stack_words = 1;  // binary stack: 64-bit words needed (1 or 2); see required_stack_words
  // Front width at which the breadth-first front stops and each of its node pairs becomes one
  // per-thread traversal (narrow.hpp); 0 = one per-thread traversal per task.
  std::uint64_t split = 0;
  // Front levels to run at most: the largest first depth + second depth of a task, plus 2 (every
  // level descends one node, so the front is empty after that many).
  int levels = 2;
  std::vector<PairTask> tasks;
  // Per task: the second object's pose in the first one's frame as the set-up reads it (rotation
  // matrix, translation, centred translation and scene scale: make_query_pose_view). The backend
  // makes the axes and the placement from it (SetupStep).
  std::vector<QueryPoseView> poses;
};

struct NarrowOutput {
  // Candidates (overlapping leaf pairs) sorted by the triangle test: every candidate is in exactly
  // one of the three lists, each in no particular order. `undecided` are those whose floating-point
  // filters could not certify the test's signs: the caller decides them exactly.
  std::vector<ResultEntry> contacts;
  std::vector<ResultEntry> undecided;
  std::uint64_t candidates = 0;
  std::vector<TaskCounters> counters;   // per task
  int launches = 0;                     // 1, or 2 when the first candidate buffer was too small
  std::uint64_t units = 0;              // per-thread depth-first traversals (front node pairs handed over)
  std::uint64_t final_capacity = 0;     // candidate buffer of the last run
  // Seconds: inputs in, the set-up step, the traversal and triangle tests, results out.
  double upload = 0, setup = 0, kernels = 0, download = 0;
  // Bit (1 << SetupStatus) for every status other than Ok that the set-up step met; 0 = all Ok
  // (otherwise the other fields are not meaningful).
  unsigned long long setup_status = 0;
};

}  // namespace kdopcd::cuda
