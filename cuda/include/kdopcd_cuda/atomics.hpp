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

// Grouped forms of atomic_add for the counters that many threads of one warp update at once (a
// front level of one task: every thread adds to the same task's counters and takes slots of the
// same next level and candidate buffer). On the device, the lanes of a warp that execute the call
// together and name the same target make one atomic between them, by the lowest lane; on the
// host they are atomic_add. Without this, one large task's front serialized on a few addresses.

// *target += value; value < 2^27 (a warp's sum is taken in 32 bits).
KDOPCD_HD inline void atomic_add_grouped(unsigned long long* target, unsigned long long value) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned group = __match_any_sync(__activemask(), reinterpret_cast<unsigned long long>(target));
  const unsigned total = __reduce_add_sync(group, static_cast<unsigned>(value));
  if ((threadIdx.x & 31u) == static_cast<unsigned>(__ffs(group) - 1)) atomicAdd(target, static_cast<unsigned long long>(total));
#else
  atomic_add(target, value);
#endif
}

// Takes `count` slots of the counter *target and returns the first, as atomic_add(target, count)
// does. Every lane that executes a given call passes the same `count` (a constant of the call
// site): the group's slots are then handed out in lane order.
KDOPCD_HD inline unsigned long long atomic_reserve_grouped(unsigned long long* target, unsigned count) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned group = __match_any_sync(__activemask(), reinterpret_cast<unsigned long long>(target));
  const unsigned lane = threadIdx.x & 31u;
  const int leader = __ffs(group) - 1;
  unsigned long long base = 0;
  if (static_cast<int>(lane) == leader)
    base = atomicAdd(target, static_cast<unsigned long long>(count) * static_cast<unsigned>(__popc(group)));
  base = __shfl_sync(group, base, leader);
  return base + static_cast<unsigned long long>(count) * static_cast<unsigned>(__popc(group & ((1u << lane) - 1u)));
#else
  return atomic_add(target, count);
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
