#pragma once
// Queries of object pairs against resident trees, on the host (TBB) or the GPU: the part of a query
// after the broad phase, shared by the multibody engine (tasks = object pairs of a scene) and by
// `kdop collide --device` (tasks = poses of one pair). Per task: the relative pose's SAT set-up
// (as kdopcd::collide makes it), the narrow phase on the backend (traversal and filtered triangle
// tests, narrow_pipeline.hpp), the exact triangle test on the host for the candidates the filters
// left undecided, and the contacts sorted. Every contact set and counter is kdopcd::collide's at
// the same pose, for the same trees, descent rule and SAT arithmetic.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "kdopcd/collide.hpp"
#include "kdopcd/dop_tree.hpp"
#include "kdopcd/fixed_format.hpp"
#include "kdopcd/pose.hpp"
#include "kdopcd/traversal.hpp"
#include "kdopcd_cuda/layout.hpp"
#include "kdopcd_cuda/narrow_io.hpp"

namespace kdopcd::cuda {

enum class Backend { Host, Cuda };
Backend parse_backend(const std::string& name);          // "host", "cuda"
// "binary", "explicit", "dynamic", "predictable", "leaf", "stackless", "post-indexed"; else InputError.
TraversalKind parse_traversal(const std::string& name);
const char* to_string(Backend b);
const char* to_string(TraversalKind t);
std::vector<TraversalKind> all_traversals();  // in TraversalKind order
// Predictable stack, stackless, post-indexed: the alternately stepping order (= Shallower rule).
bool alternating_order(TraversalKind t);
// Whether the traversal tests the DOP pairs of kdopcd::traverse with descent_rule() (all but the
// leaf algorithm), so that its pair and axis test counts equal the reference's.
bool visits_reference_pairs(TraversalKind t);
// Bytes of pending-work memory one thread reserves before it starts (a fixed array, the binary
// stack's words, the dynamic stack's local part; 0 for the stackless orders).
std::uint64_t reserved_pending_bytes(TraversalKind t, int stack_words = 1);

struct NarrowOptions {
  Backend backend = Backend::Host;
  TraversalKind traversal = TraversalKind::BinaryStack;
  // Front width at which the breadth-first phase of the narrow phase hands its node pairs to
  // per-thread depth-first traversals (narrow.hpp); 0 = one traversal per task. Default:
  // kHostSplitPerThread per host thread, default_device_split(tasks) on the GPU. At most kMaxSplit.
  std::optional<std::uint64_t> split;
  int axes = 0;  // n per DOP pair, 0 = all k
  DescentRule rule = kHardwareDescentRule;
  SatBackend sat = SatBackend::Float;  // Float or Fixed (Exact is host-reference only)
  FixedParams fixed{};
  int threads = 0;  // host backend and host phases: TBB threads, 0 = all; at most kMaxThreads
  // Initial candidate-buffer capacity; 0 = automatic (256 per task, at least 2^16, or a quarter
  // more than the previous call's candidates); at most kMaxInitialCapacity. Tests force tiny
  // values to exercise the second run.
  std::uint64_t initial_capacity = 0;
};
// Bounds of NarrowOptions (validate throws InputError outside them): TBB cannot create arenas of
// arbitrary size, and the buffers are allocated at once.
inline constexpr int kMaxThreads = 1024;
inline constexpr std::uint64_t kMaxInitialCapacity = std::uint64_t(1) << 24;
inline constexpr std::uint64_t kHostSplitPerThread = 256;
// The GPU's smallest default split. On an H200, 4 096 cows (density 4) took 46.0, 24.8, 20.3 and
// 9.4 ms of kernels per frame at splits 2^16, 2^18, 2^20 and 2^22 (scripts/gpu-check.sh,
// docs/cuda.md §11): a wide front keeps the GPU's threads in step where per-thread traversals
// diverge.
inline constexpr std::uint64_t kMinDeviceSplit = std::uint64_t(1) << 22;
inline constexpr std::uint64_t kMaxSplit = std::uint64_t(1) << 26;  // front buffers: 3 x 2 x 12 bytes per unit
// Node pairs of front per task that the GPU's default split allows for.
inline constexpr std::uint64_t kDeviceSplitPerTask = 256;
// The GPU's default split for a query of `tasks` object pairs: kDeviceSplitPerTask per task,
// rounded up to a power of two, within [kMinDeviceSplit, kMaxSplit]. A larger scene's front is
// wider: 32 768 cows (173 026 object pairs) took 249, 93.0 and 73.4 ms of kernels per frame at
// splits 2^22, 2^24 and 2^26 on an H200 (docs/cuda.md §11), and get 2^26 here; scenes of up to
// 16 384 object pairs keep 2^22. The front buffers are sized by the split (4.8 GB at 2^26), so the
// split grows with the scene rather than being wide for every query.
std::uint64_t default_device_split(std::uint64_t tasks);
void validate(const NarrowOptions& options);  // throws InputError
// The descent rule the traversal follows: DescentRule::Larger (volume) for the dynamic stack,
// else options.rule (which the alternating orders require to be Shallower).
DescentRule descent_rule(const NarrowOptions& options);

// Words of the binary stack for trees of these depths: the descent path is at most
// first + second labels long; 1 word holds 63 labels, 2 hold 127. 0 = deeper than supported
// (the caller reports an error; never a wrong answer). Reference DopTrees are balanced with
// depth <= ceil(log2 triangles) <= 31, so one word always suffices for them.
int required_stack_words(int first_depth, int second_depth);

// The narrow phase's engines (narrow_pipeline.hpp's NarrowEngine on an executor), each keeping a
// scene resident across queries. HostNarrow runs on TBB threads (threads 0 = all); DeviceNarrow on
// the GPU (cuda/device/narrow.cu; without CUDA at build time its run throws std::runtime_error).
class HostNarrow {
 public:
  HostNarrow();
  ~HostNarrow();
  NarrowOutput run(const NarrowScene& scene, const NarrowQuery& query, std::uint64_t initial_capacity, int threads);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};
class DeviceNarrow {
 public:
  DeviceNarrow();
  ~DeviceNarrow();
  NarrowOutput run(const NarrowScene& scene, const NarrowQuery& query, std::uint64_t initial_capacity);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// device_available() is false (with the reason) when the build has no CUDA or
// cudaGetDeviceCount fails (no driver: error 35) or reports no device.
bool device_available(std::string* reason = nullptr);

// Throws OverflowError if any task's traversal overflowed its stack, std::logic_error if the
// lists returned do not hold as many candidates as the leaf pairs counted.
void check_outcomes(const NarrowOutput& out);

// One task: trees by index into the runner's trees, and the second object's pose in the first
// one's frame (what kdopcd::collide(first, second, relative) takes).
struct TaskSpec {
  std::uint32_t first_tree;
  std::uint32_t second_tree;
  Pose relative;
  std::uint32_t first_object = 0, second_object = 0;  // carried along (multibody object indices)
};

struct NarrowRun {
  std::vector<std::vector<ContactPair>> contacts;  // per task, sorted
  std::vector<TaskCounters> counters;              // per task
  std::uint64_t candidates = 0;       // overlapping leaf pairs over all tasks
  std::uint64_t exact_fallbacks = 0;  // candidates the filtered triangle test left to the exact one
  std::uint64_t units = 0;            // per-thread traversals the front handed over (narrow.hpp)
  int launches = 0;                   // narrow-phase runs: 1, or 2 after a candidate buffer overflow
  std::uint64_t final_capacity = 0;   // candidate buffer of the last run
  // Seconds: set-up on the host (tasks and pose views), narrow phase (the axes' set-up, traversal
  // and triangle tests on the backend; its process CPU time, and its upload / set-up / compute /
  // download parts as the backend times them), exact fallback and sorting on the host.
  double setup = 0, narrow = 0, narrow_cpu = 0, exact = 0;
  double device_upload = 0, device_setup = 0, device_kernels = 0, device_download = 0;
};

class NarrowRunner {
 public:
  // Trees (one per mesh; all of one k) must outlive the runner.
  explicit NarrowRunner(std::vector<const DopTree*> trees);
  ~NarrowRunner();
  NarrowRunner(const NarrowRunner&) = delete;
  NarrowRunner& operator=(const NarrowRunner&) = delete;

  int k() const { return k_; }
  const DopTree& tree(std::size_t t) const { return *trees_[t]; }
  const PostOrderTree& layout(std::size_t t) const { return layouts_[t]; }

  // Not thread-safe: a runner answers one call at a time (it keeps the engines' resident state).
  NarrowRun run(const std::vector<TaskSpec>& tasks, const NarrowOptions& options) const;

 private:
  // The index of tree t quantized at scene scale s with b coefficient bits in the scene's
  // quantized trees, made on first use.
  std::uint32_t quantized_tree(std::uint32_t t, double s, int b) const;
  int k_;
  std::vector<const DopTree*> trees_;
  std::vector<PostOrderTree> layouts_;
  mutable NarrowScene scene_;
  mutable std::map<std::tuple<std::uint32_t, double, int>, std::uint32_t> quantized_index_;
  mutable std::uint64_t last_candidates_ = 0;
  struct Engines;
  std::unique_ptr<Engines> engines_;
};

}  // namespace kdopcd::cuda
