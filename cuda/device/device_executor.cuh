#pragma once
// The device executor of narrow_pipeline.hpp: buffers in device memory, parallel loops as kernel
// launches on the default stream. Each step functor type has its kernels, with C names so that
// the ptxas report (docs/cuda.md §6) reads plainly (StepKernels, declared with the macros below).
// Counts that only the device knows (front levels, units, candidates) are read by the kernels
// themselves; the host also reads each one (known_count: 8 bytes into pinned memory, waiting for
// the launches before it) to stop at the first empty level and to size each launch to its items.
// Without that every query paid the deepest path's launches of a grid sized for the largest front
// (about 250 us on an H200 for a query that separates at the roots).
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "device_common.cuh"
#include "kdopcd_cuda/narrow.hpp"

namespace kdopcd::cuda {

namespace device {

inline constexpr unsigned kBlock = 256;

// i < n for n = *count (or n_known without a count), spread over the grid.
template <class F>
__device__ __forceinline__ void grid_stride(const F& step, const unsigned long long* count,
                                            unsigned long long n_known) {
  const unsigned long long n = count ? *count : n_known;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) step(i);
}

// i < *count handed out one at a time from *next (zeroed before the launch): a thread that
// finishes a short item takes the next one, so long items do not hold up a statically assigned
// share of the range.
template <class F>
__device__ __forceinline__ void balanced(const F& step, const unsigned long long* count, unsigned long long* next) {
  const unsigned long long n = *count;
  for (;;) {
    const unsigned long long i = atomicAdd(next, 1ull);
    if (i >= n) return;
    step(i);
  }
}

// The whole front of a query in one cooperative launch (FusedFront): every level's items are
// expanded by the grid's threads, a grid-wide barrier between levels, until a level is empty or
// at least `split` wide. level_counts[1..levels] are zero at the launch; level 0 holds
// f.task_count items. Each block reads a level's count once (an atomic read at the L2, after the
// barrier) and its threads take it from shared memory, so every thread of the grid sees the same
// count and leaves the loop at the same level.
template <SatKind Sat>
__device__ __forceinline__ void fused_front(const NarrowView& v, const FusedFront& f, unsigned long long* level_counts) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  __shared__ unsigned long long level_size;
  for (int level = 0; level < f.levels; ++level) {
    if (threadIdx.x == 0) level_size = level == 0 ? f.task_count : atomicAdd(level_counts + level, 0ull);
    __syncthreads();
    const unsigned long long n = level_size;
    if (n == 0) return;
    const FrontLevel l{level % 2 ? f.b : f.a, &level_size, level % 2 ? f.a : f.b, level_counts + level + 1,
                       f.units, f.unit_count, f.split};
    const ExpandStep<Sat> step{v, l};
    for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) step(i);
    if (n >= f.split) return;  // this level went to the units; the next is empty
    grid.sync();
    __syncthreads();  // every thread of the block has read level_size before thread 0 rewrites it
  }
}

}  // namespace device

// FusedFrontKernel<Sat>::kernel: the kernel of device::fused_front (defined with the other kernels).
template <SatKind Sat>
struct FusedFrontKernel;

// StepKernels<F>::even(step, count, n) and/or ::uneven(step, count, next): the kernels of step F.
template <class F>
struct StepKernels;

// Each defines the kernel NAME of step STEP and registers it as StepKernels<STEP>'s (use them in
// namespace kdopcd::cuda).
#define KDOPCD_EVEN_KERNEL(NAME, STEP)                                                                         \
  extern "C" __global__ void __launch_bounds__(::kdopcd::cuda::device::kBlock)                                 \
      NAME(STEP step, const unsigned long long* count, unsigned long long n) {                                 \
    ::kdopcd::cuda::device::grid_stride(step, count, n);                                                       \
  }                                                                                                            \
  template <>                                                                                                  \
  struct StepKernels<STEP> {                                                                                   \
    static constexpr auto even = NAME;                                                                         \
  };
#define KDOPCD_UNEVEN_KERNEL(NAME, STEP)                                                                       \
  extern "C" __global__ void __launch_bounds__(::kdopcd::cuda::device::kBlock)                                 \
      NAME(STEP step, const unsigned long long* count, unsigned long long* next) {                             \
    ::kdopcd::cuda::device::balanced(step, count, next);                                                       \
  }                                                                                                            \
  template <>                                                                                                  \
  struct StepKernels<STEP> {                                                                                   \
    static constexpr auto uneven = NAME;                                                                       \
  };

class DeviceExecutor {
 public:
  static constexpr int kMaxStackWords = 1;
  // Queries of at most this many tasks run their front in one cooperative launch (fused_front):
  // their levels are narrow, and a launch per level cost more than the level's work.
  static constexpr std::uint64_t kFusedFrontMaxTasks = 64;
  static constexpr std::size_t kDeviceHeapBytes = std::size_t(256) << 20;  // device malloc: dynamic stack
  template <class T>
  using Buffer = detail::DeviceBuffer<T>;

  DeviceExecutor() {
    int dev = 0;
    detail::check(cudaGetDevice(&dev), "cudaGetDevice");
    detail::check(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, dev), "cudaDeviceGetAttribute");
    // The dynamic stack's heap blocks (stack_traversals.hpp) come from the device heap, whose
    // default 8 MiB would fail (as a reported overflow) once a few thousand threads grow past their
    // local pairs; the limit must be set before the first kernel that calls malloc.
    std::size_t heap = 0;
    detail::check(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize), "cudaDeviceGetLimit");
    if (heap < kDeviceHeapBytes)
      detail::check(cudaDeviceSetLimit(cudaLimitMallocHeapSize, kDeviceHeapBytes), "cudaDeviceSetLimit (heap)");
    detail::check(cudaEventCreate(&start_), "cudaEventCreate");
    detail::check(cudaEventCreate(&stop_), "cudaEventCreate");
    detail::check(cudaMallocHost(&pinned_count_, sizeof *pinned_count_), "cudaMallocHost");
    alloc(next_, 1);
    int cooperative = 0;
    detail::check(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, dev), "cudaDeviceGetAttribute");
    // KDOPCD_FUSED_FRONT=0 turns the one-launch front off (to compare, or should a driver refuse it).
    const char* fused = std::getenv("KDOPCD_FUSED_FRONT");
    fused_front_ = cooperative != 0 && !(fused && std::string(fused) == "0");
  }
  ~DeviceExecutor() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
    cudaFreeHost(pinned_count_);
  }
  DeviceExecutor(const DeviceExecutor&) = delete;
  DeviceExecutor& operator=(const DeviceExecutor&) = delete;

  template <class T>
  void upload(Buffer<T>& b, const std::vector<T>& v) {
    alloc(b, v.size());
    if (!v.empty())
      detail::check(cudaMemcpy(b.get(), v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy (upload)");
  }
  template <class T>
  void alloc(Buffer<T>& b, std::size_t n) {
    if (b.size() < n) b.allocate(n);
  }
  template <class T>
  void zero(T* p, std::size_t n) {
    if (n) detail::check(cudaMemsetAsync(p, 0, n * sizeof(T)), "cudaMemsetAsync");
  }
  void set_count(unsigned long long* p, std::uint64_t value) {
    const unsigned long long v = value;
    detail::check(cudaMemcpy(p, &v, sizeof v, cudaMemcpyHostToDevice), "cudaMemcpy (count)");
  }
  // The count as the device has it once every launch before this call has finished.
  std::optional<unsigned long long> known_count(const unsigned long long* count) const {
    detail::check(cudaMemcpy(pinned_count_, count, sizeof *pinned_count_, cudaMemcpyDeviceToHost), "cudaMemcpy (count)");
    return *pinned_count_;
  }
  template <class T>
  std::vector<T> download(const Buffer<T>& b, std::size_t n) const {
    return b.download(n);
  }
  void start_timer() { detail::check(cudaEventRecord(start_), "cudaEventRecord"); }
  double stop_timer() {
    detail::check(cudaEventRecord(stop_), "cudaEventRecord");
    detail::check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
    float ms = 0;
    detail::check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return double(ms) * 1e-3;
  }

  // The front in one cooperative launch (all its blocks resident at once), for queries of few
  // tasks; false (nothing launched) otherwise or if the launch is refused.
  template <SatKind Sat>
  bool fused_front(const NarrowView& v, const FusedFront& f) {
    if (!fused_front_ || f.task_count > kFusedFrontMaxTasks || f.levels <= 0) return false;
    const auto kernel = FusedFrontKernel<Sat>::kernel;
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, int(device::kBlock), 0) != cudaSuccess ||
        per_sm <= 0) {
      cudaGetLastError();
      return false;
    }
    alloc(level_counts_, std::size_t(f.levels) + 1);
    zero(level_counts_.get(), std::size_t(f.levels) + 1);
    NarrowView view = v;
    FusedFront front = f;
    unsigned long long* counts = level_counts_.get();
    void* args[] = {&view, &front, &counts};
    // Two blocks per SM at most: the levels of a few tasks are narrow, and a grid-wide barrier
    // over fewer blocks is quicker.
    const dim3 grid(unsigned(std::min(per_sm, 2)) * unsigned(sms_)), block(device::kBlock);
    if (cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), grid, block, args, 0, nullptr) !=
        cudaSuccess) {
      cudaGetLastError();  // refused before it ran: the level loop does the front
      return false;
    }
    return true;
  }

  template <class F>
  void for_each(std::uint64_t n, const F& step) {
    if (n == 0) return;
    const auto kernel = StepKernels<F>::even;
    kernel<<<grid(n), device::kBlock>>>(step, nullptr, n);
    detail::check(cudaGetLastError(), "kernel launch");
  }
  template <Balance B, class F>
  void for_each_counted(const unsigned long long* count, std::uint64_t max, const F& step) {
    if (max == 0) return;
    if constexpr (B == Balance::Even) {
      const auto kernel = StepKernels<F>::even;
      kernel<<<grid(max), device::kBlock>>>(step, count, 0);
    } else {
      zero(next_.get(), 1);
      const auto kernel = StepKernels<F>::uneven;
      kernel<<<grid(max), device::kBlock>>>(step, count, next_.get());
    }
    detail::check(cudaGetLastError(), "kernel launch");
  }

 private:
  // Enough blocks for n items, at most 16 resident blocks' worth per SM (the loops stride).
  unsigned grid(std::uint64_t n) const {
    const std::uint64_t blocks = (n + device::kBlock - 1) / device::kBlock;
    return unsigned(std::min<std::uint64_t>(blocks, std::uint64_t(sms_) * 16));
  }
  int sms_ = 1;
  cudaEvent_t start_{}, stop_{};
  unsigned long long* pinned_count_ = nullptr;  // page-locked: the count's copy needs no staging
  bool fused_front_ = false;
  Buffer<unsigned long long> level_counts_;     // fused_front's per-level counts
  Buffer<unsigned long long> next_;
};

}  // namespace kdopcd::cuda
