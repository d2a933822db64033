// GPU narrow phase: one thread per object pair running narrow_pair() (narrow.hpp), the same code
// the host backend runs. Kernels have C names so that the ptxas report (docs/cuda.md §6) reads
// plainly. Built with --fmad=false: the float SAT then rounds exactly like the host (g++ does not
// contract a*b+c either), so device and reference verdicts are bit-identical.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>

#include "device_common.cuh"
#include "kdopcd_cuda/multibody.hpp"

namespace kdopcd::cuda {

namespace {
__device__ __forceinline__ std::uint32_t launch_slot() { return blockIdx.x * blockDim.x + threadIdx.x; }
}  // namespace

extern "C" __global__ void __launch_bounds__(128) kdopcd_binary_stack_float(NarrowView v) {
  const std::uint32_t i = launch_slot();
  if (i < v.launch_count) narrow_pair<TraversalKind::BinaryStack, SatKind::Float, 1>(v, i);
}
extern "C" __global__ void __launch_bounds__(128) kdopcd_binary_stack_fixed(NarrowView v) {
  const std::uint32_t i = launch_slot();
  if (i < v.launch_count) narrow_pair<TraversalKind::BinaryStack, SatKind::Fixed, 1>(v, i);
}
extern "C" __global__ void __launch_bounds__(128) kdopcd_explicit_stack_float(NarrowView v) {
  const std::uint32_t i = launch_slot();
  if (i < v.launch_count) narrow_pair<TraversalKind::ExplicitStack, SatKind::Float, 1>(v, i);
}
extern "C" __global__ void __launch_bounds__(128) kdopcd_explicit_stack_fixed(NarrowView v) {
  const std::uint32_t i = launch_slot();
  if (i < v.launch_count) narrow_pair<TraversalKind::ExplicitStack, SatKind::Fixed, 1>(v, i);
}

bool device_available(std::string* reason) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    if (reason) *reason = std::string("cudaGetDeviceCount failed: ") + cudaGetErrorString(e) + " (error " + std::to_string(int(e)) + ")";
    cudaGetLastError();  // clear the sticky-free error state
    return false;
  }
  if (count == 0) {
    if (reason) *reason = "cudaGetDeviceCount reports no device";
    return false;
  }
  return true;
}

NarrowOutput device_narrow(const NarrowInput& in, std::uint64_t initial_capacity) {
  using detail::check;
  using detail::DeviceBuffer;
  using clock = std::chrono::steady_clock;
  NarrowOutput out;
  const std::uint32_t task_count = std::uint32_t(in.tasks.size());
  out.outcomes.assign(task_count, PairOutcome{});
  if (task_count == 0) return out;
  if (in.traversal == TraversalKind::BinaryStack && in.stack_words != 1)
    throw std::runtime_error("device narrow phase: only the one-word binary stack is compiled for the GPU");

  auto t0 = clock::now();
  DeviceBuffer<BsNode> nodes;
  DeviceBuffer<double> coefficients;
  DeviceBuffer<TreeInfo> trees;
  DeviceBuffer<std::int64_t> qcoefficients;
  DeviceBuffer<std::int32_t> qtrees;
  DeviceBuffer<PairTask> tasks;
  DeviceBuffer<AxisRecord> axes;
  DeviceBuffer<QuantizedAxis> qaxes;
  nodes.upload(in.nodes);
  coefficients.upload(in.coefficients);
  trees.upload(in.trees);
  qcoefficients.upload(in.qcoefficients);
  qtrees.upload(in.qtrees);
  tasks.upload(in.tasks);
  axes.upload(in.axes);
  qaxes.upload(in.qaxes);
  DeviceBuffer<PairOutcome> outcomes(task_count);
  DeviceBuffer<unsigned long long> counter(1);
  DeviceBuffer<std::uint32_t> launch_tasks, skip;
  check(cudaDeviceSynchronize(), "upload");
  out.upload = std::chrono::duration<double>(clock::now() - t0).count();

  NarrowView v{};
  v.nodes = nodes.get();
  v.coefficients = coefficients.get();
  v.trees = trees.get();
  v.qcoefficients = qcoefficients.get();
  v.qtrees = qtrees.get();
  v.tasks = tasks.get();
  v.axes = axes.get();
  v.qaxes = qaxes.get();
  v.k = in.k;
  v.axes_per_pair = in.axes_per_pair;
  v.rule = in.rule;
  v.fixed = in.fixed;
  v.outcomes = outcomes.get();
  v.counter = counter.get();

  auto kernel = in.traversal == TraversalKind::BinaryStack
                    ? (in.sat == SatKind::Fixed ? kdopcd_binary_stack_fixed : kdopcd_binary_stack_float)
                    : (in.sat == SatKind::Fixed ? kdopcd_explicit_stack_fixed : kdopcd_explicit_stack_float);
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");

  std::uint64_t capacity = std::max<std::uint64_t>(initial_capacity, 1);
  std::vector<std::uint32_t> relaunch;
  std::vector<PairOutcome> host_outcomes;
  for (;;) {
    DeviceBuffer<ResultEntry> results(capacity);
    v.results = results.get();
    v.capacity = capacity;
    v.launch_tasks = relaunch.empty() ? nullptr : launch_tasks.get();
    v.launch_count = relaunch.empty() ? task_count : std::uint32_t(relaunch.size());
    v.skip = out.launches == 0 ? nullptr : skip.get();
    check(cudaMemset(counter.get(), 0, sizeof(unsigned long long)), "cudaMemset");
    const unsigned threads = 128;
    const unsigned blocks = (v.launch_count + threads - 1) / threads;
    check(cudaEventRecord(start), "cudaEventRecord");
    kernel<<<blocks, threads>>>(v);
    check(cudaGetLastError(), "narrow kernel launch");
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "narrow kernel");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    out.kernels += ms * 1e-3;
    ++out.launches;
    out.final_capacity = capacity;

    t0 = clock::now();
    const unsigned long long total = counter.download(1)[0];
    const std::uint64_t stored = std::min<std::uint64_t>(total, capacity);
    const std::vector<ResultEntry> part = results.download(stored);
    out.results.insert(out.results.end(), part.begin(), part.end());
    host_outcomes = outcomes.download(task_count);
    out.download += std::chrono::duration<double>(clock::now() - t0).count();
    if (total <= capacity) break;
    // Overflow: relaunch the pairs with stored < emitted into a buffer of exactly the missing size.
    relaunch.clear();
    std::vector<std::uint32_t> skip_host(task_count, 0);
    std::uint64_t missing = 0;
    for (std::uint32_t t = 0; t < task_count; ++t) {
      skip_host[t] = host_outcomes[t].stored;
      if (host_outcomes[t].stored < host_outcomes[t].emitted) {
        relaunch.push_back(t);
        missing += host_outcomes[t].emitted - host_outcomes[t].stored;
      }
    }
    if (relaunch.empty()) throw std::logic_error("device narrow phase: overflow without a missing pair");
    t0 = clock::now();
    launch_tasks.upload(relaunch);
    skip.upload(skip_host);
    out.upload += std::chrono::duration<double>(clock::now() - t0).count();
    capacity = missing;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  out.outcomes = std::move(host_outcomes);
  return out;
}

}  // namespace kdopcd::cuda
