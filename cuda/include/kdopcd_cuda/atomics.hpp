#pragma once
// The atomic operations of the shared narrow-phase code (KDOPCD_HD): CUDA's atomics on the
// device, std::atomic_ref on the host. Relaxed order everywhere: every counter is read only after
// the launch (kernel or parallel loop) that updates it has finished.
#include <cstdint>

#include "kdopcd/config.hpp"

#if !defined(__CUDA_ARCH__)
#include <atomic>
#endif

namespace kdopcd::cuda {

// Adds `value` to *target and returns the previous value.
KDOPCD_HD inline unsigned long long atomic_add(unsigned long long* target, unsigned long long value) {
#if defined(__CUDA_ARCH__)
  return atomicAdd(target, value);
#else
  return std::atomic_ref<unsigned long long>(*target).fetch_add(value, std::memory_order_relaxed);
#endif
}

KDOPCD_HD inline void atomic_or(std::uint32_t* target, std::uint32_t bits) {
#if defined(__CUDA_ARCH__)
  atomicOr(reinterpret_cast<unsigned int*>(target), bits);
#else
  std::atomic_ref<std::uint32_t>(*target).fetch_or(bits, std::memory_order_relaxed);
#endif
}

KDOPCD_HD inline void atomic_or(unsigned long long* target, unsigned long long bits) {
#if defined(__CUDA_ARCH__)
  atomicOr(target, bits);
#else
  std::atomic_ref<unsigned long long>(*target).fetch_or(bits, std::memory_order_relaxed);
#endif
}

// *target = max(*target, value).
KDOPCD_HD inline void atomic_max(std::uint32_t* target, std::uint32_t value) {
#if defined(__CUDA_ARCH__)
  atomicMax(reinterpret_cast<unsigned int*>(target), value);
#else
  std::atomic_ref<std::uint32_t> ref(*target);
  std::uint32_t seen = ref.load(std::memory_order_relaxed);
  while (seen < value && !ref.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
  }
#endif
}

}  // namespace kdopcd::cuda
