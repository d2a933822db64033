#pragma once
// The device executor of narrow_pipeline.hpp: buffers in device memory, parallel loops as kernel
// launches on the default stream. Each step functor type has its kernels, with C names so that
// the ptxas report (docs/cuda.md §6) reads plainly (StepKernels, declared with the macros below).
// Counts that only the device knows (front levels, units, candidates) are read by the kernels
// themselves; the host reads some (known_count: 8 bytes into pinned memory, waiting for the
// launches before it): the first front levels', to stop a query whose front dies early, and the
// units' and candidates', to size those launches (narrow_pipeline.hpp, traverse).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <optional>
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

}  // namespace device

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
  static constexpr bool kCheapCounts = false;  // reading one waits for the device
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
  Buffer<unsigned long long> next_;
};

}  // namespace kdopcd::cuda
