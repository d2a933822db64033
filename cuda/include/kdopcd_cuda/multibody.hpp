#pragma once
// Multibody collision detection (docs/cuda.md): a scene of rigid objects, a broad phase (GPU
// spatial subdivision after Le Grand 2007, docs/references.md, or CPU sort and sweep), and the
// narrow phase of every candidate object pair with the binary-stack (or explicit-stack) traversal,
// on the GPU (one thread per object pair) or on CPU threads (TBB) with the same traversal code.
// Candidate triangle pairs (overlapping leaf DOPs) come back through an overflow-safe result buffer
// and are decided on the host by the reference's exact triangle test, so every contact set is exact
// and equal to kdopcd::collide's for the same relative pose.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "kdopcd/collide.hpp"
#include "kdopcd/dop_tree.hpp"
#include "kdopcd/mesh.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd_cuda/layout.hpp"
#include "kdopcd_cuda/narrow.hpp"
#include "kdopcd_cuda/narrow_io.hpp"
#include "kdopcd_cuda/narrow_runner.hpp"

namespace kdopcd::cuda {

// ---------------------------------------------------------------------------------------------
// Scenes: {"objects":[{"mesh":"cow.off","rotation":[qw,qx,qy,qz],"translation":[x,y,z],
//                      "velocity":[vx,vy,vz],"spin":[wx,wy,wz]}, ...]}
// velocity and spin are optional (0): the motion of `kdop multibody --frames`, in world units and
// radians per second, the spin about a world axis through the object's centre.
struct SceneObject {
  std::string mesh;  // path as resolved (relative paths in the file are relative to the file)
  Pose pose;         // world placement: x_world = R(q) x_local + t, q normalized on load
  Vec3 velocity = Vec3::Zero();
  Vec3 spin = Vec3::Zero();
};
struct Scene {
  std::vector<SceneObject> objects;
};

// The placement at `time` seconds of an object placed by `start` that moves its local point
// `centre` at constant velocity and spins about it at constant angular velocity (world frame):
// R(t) = exp(spin t) R(0), centre(t) = centre(0) + velocity t.
Pose pose_at(const Pose& start, const Vec3& centre, const Vec3& velocity, const Vec3& spin, double time);

// A motion for every object of a scene that has none: a random direction at `speed` and a random
// spin axis at `spin_rate` rad/s, deterministic for a seed.
void generate_motions(Scene& scene, double speed, double spin_rate, std::uint64_t seed);

Scene load_scene(const std::string& path);  // throws InputError with the path and the object index
// The same from the file's text; relative mesh paths are taken relative to `path`'s folder.
Scene parse_scene(const std::string& text, const std::string& path);
// Writes mesh paths relative to the scene file's folder; rotations and translations with %.17g.
void save_scene(const Scene& scene, const std::string& path);

// Scene generator: `objects` copies of one mesh on a jittered cubic grid with random rotations,
// "dispersed but touching" like the binary-stack paper's 512 cows. The grid spacing is
// 2 r / cbrt(density), r the radius of the mesh's bounding sphere about its box centre: density 1 puts
// neighbouring spheres just in contact, larger values push them into each other. Each object is
// moved by up to a quarter spacing per axis. Deterministic for a seed (own integer-to-double
// mapping, no std::uniform_*_distribution).
Scene generate_scene(const std::string& mesh_path, const Mesh& mesh, int objects, double density, std::uint64_t seed);

// The pose of object b in object a's frame, as kdopcd::collide(tree_a, tree_b, pose) takes it:
// q = normalize(conj(q_a) q_b), t = R_a^T (t_b - t_a) (pose_record.hpp: the GPU's doubles too).
Pose relative_pose(const Pose& a, const Pose& b);

// ---------------------------------------------------------------------------------------------
// Broad phase. World axis-aligned boxes of the objects (computed from the placed vertices and
// widened by 1e-9 of the scene's largest coordinate, so that the relative-frame rounding of the
// narrow phase can never make a touching pair appear apart). A pair is a candidate iff the closed
// boxes overlap; both broad phases return exactly that set, sorted, a < b, no duplicates.
struct Aabb {
  double lo[3];
  double hi[3];
};
using ObjectPair = std::pair<std::uint32_t, std::uint32_t>;

std::vector<ObjectPair> sort_and_sweep(const std::vector<Aabb>& boxes);  // CPU
std::vector<ObjectPair> brute_force_pairs(const std::vector<Aabb>& boxes);

// Uniform grid of the GPU broad phase (Le Grand 2007): cell = 1.01 x the largest box extent, so a
// box covers at most 2 cells per axis (8 in all); 21 bits per axis in a 63-bit cell id (the cell
// grows if the scene needs more).
struct GridSpec {
  double origin[3];
  double cell;
};
// make_grid checks every box with the cell arithmetic of grid.hpp and grows the cell until each
// covers at most 2 cells per axis.
GridSpec make_grid(const std::vector<Aabb>& boxes);
// The grid algorithm of the GPU (grid.hpp) run on the host with std::sort: the tests run it.
std::vector<ObjectPair> host_grid_pairs(const std::vector<Aabb>& boxes, const GridSpec& grid);

// ---------------------------------------------------------------------------------------------
enum class BroadPhase { Grid, SortSweep };
BroadPhase parse_broad_phase(const std::string& name);  // "grid", "sweep"
const char* to_string(BroadPhase b);

// The narrow phase's options (narrow_runner.hpp: backend, traversal, split, SAT, threads, ...)
// and the broad phase. MultibodyWorld::run throws InputError outside their bounds.
struct MultibodyOptions : NarrowOptions {
  std::optional<BroadPhase> broad;  // default: Grid on the GPU, SortSweep on the host
};

struct PairResult {
  std::uint32_t first_object, second_object;  // first < second
  std::vector<ContactPair> contacts;           // (triangle of first, triangle of second), sorted
  TraversalStats stats;                        // pair_tests, axis_tests, leaf_pairs, triangle_tests, contacts
};

struct PhaseTimes {  // seconds
  double boxes = 0, broad = 0, setup = 0, narrow = 0, exact = 0, total = 0;
  // Inside narrow, as the backend times them (CUDA events on the GPU): inputs in, the axes'
  // set-up, traversal and triangle tests, results out.
  double device_upload = 0, device_setup = 0, device_kernels = 0, device_download = 0;
  double narrow_cpu = 0, total_cpu = 0;  // process CPU time (all threads; std::clock)
};

struct MultibodyResult {
  std::vector<ObjectPair> broad_pairs;  // candidates of the broad phase
  std::vector<PairResult> pairs;        // one per broad pair, same order
  std::uint64_t candidates = 0;         // overlapping leaf pairs over all object pairs
  std::uint64_t contacts = 0;
  std::uint64_t pair_tests = 0;
  // The traversal's own costs (docs/cuda.md §3, counters), summed over object pairs; the pending
  // bytes are the largest of any one thread.
  std::uint64_t node_visits = 0, restarts = 0, peak_pending_bytes = 0;
  int launches = 0;                     // narrow-phase runs: 1, or 2 after a candidate buffer overflow
  std::uint64_t units = 0;              // per-thread traversals the front handed over (narrow.hpp)
  std::uint64_t final_capacity = 0;     // capacity of the last launch's buffer
  std::uint64_t exact_fallbacks = 0;    // candidates the filtered triangle test left to the exact one
  BroadPhase broad_used = BroadPhase::SortSweep;
  PhaseTimes times;
};

// Meshes and trees of a scene, built once (one DopTree per distinct mesh file), kept resident by
// the engines across runs; the poses may change between runs (set_poses: simulation frames).
class MultibodyWorld {
 public:
  MultibodyWorld(const Scene& scene, int k);
  // Same, with meshes given directly (tests): object i uses meshes[mesh_of[i]].
  MultibodyWorld(std::vector<Mesh> meshes, std::vector<std::uint32_t> mesh_of, std::vector<Pose> poses, int k);

  int k() const { return k_; }
  std::size_t object_count() const { return poses_.size(); }
  const Pose& pose(std::size_t object) const { return poses_[object]; }
  const DopTree& tree_of(std::size_t object) const { return *trees_[mesh_of_[object]]; }
  const Mesh& mesh_of(std::size_t object) const { return *meshes_[mesh_of_[object]]; }
  std::uint32_t mesh_index(std::size_t object) const { return mesh_of_[object]; }
  std::size_t mesh_count() const { return meshes_.size(); }
  const DopTree& tree(std::size_t mesh) const { return *trees_[mesh]; }
  const PostOrderTree& layout(std::size_t mesh) const { return narrow_->layout(mesh); }
  std::vector<Aabb> world_boxes() const;
  // New world placements of the objects (one per object; the trees stay as they are).
  void set_poses(std::vector<Pose> poses);

  // Not thread-safe: a world runs one query at a time (it keeps the engines' resident state).
  MultibodyResult run(const MultibodyOptions& options) const;

 private:
  void build(int k);
  int k_;
  std::vector<std::unique_ptr<Mesh>> meshes_;
  std::vector<std::unique_ptr<DopTree>> trees_;
  std::vector<std::uint32_t> mesh_of_;
  std::vector<Pose> poses_;
  std::unique_ptr<NarrowRunner> narrow_;  // tree m is mesh m's
};

std::vector<ObjectPair> device_grid_pairs(const std::vector<Aabb>& boxes, const GridSpec& grid);

// The --pairs text: for every object pair with contacts, in (a, b) order, "pair <a> <b> <count>"
// then count lines "<tri_a> <tri_b>" (sorted).
std::string format_pairs(const MultibodyResult& result);

}  // namespace kdopcd::cuda
