#pragma once
// The host executor of narrow_pipeline.hpp: buffers in host memory, parallel loops on the TBB
// threads of an arena. Counts live in host memory, so the pipeline reads them for free (a front
// level of zero items ends the breadth-first phase at once, and small levels run inline).
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <optional>
#include <vector>

#include "kdopcd_cuda/narrow.hpp"

namespace kdopcd::cuda {

class HostExecutor {
 public:
  static constexpr int kMaxStackWords = 2;

  // A buffer in host memory: its own (alloc: not zeroed, so pages the steps never touch cost
  // nothing), or a view of the caller's vector (upload).
  template <class T>
  class Buffer {
   public:
    T* get() const { return data_; }
    std::size_t size() const { return size_; }

   private:
    friend class HostExecutor;
    std::unique_ptr<T[]> own_;
    std::size_t own_size_ = 0;
    T* data_ = nullptr;
    std::size_t size_ = 0;
  };

  // The loops run in `arena` (set before every query: its thread count is the query's).
  void set_arena(tbb::task_arena* arena) { arena_ = arena; }

  // A view: the host needs no copy (the pipeline reads it while the vector lives unchanged).
  template <class T>
  void upload(Buffer<T>& b, const std::vector<T>& v) {
    b.data_ = const_cast<T*>(v.data());
    b.size_ = v.size();
  }
  template <class T>
  void alloc(Buffer<T>& b, std::size_t n) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (b.own_size_ < n) {
      b.own_.reset(new T[n]);
      b.own_size_ = n;
    }
    b.data_ = b.own_.get();
    b.size_ = n;
  }
  template <class T>
  void zero(T* p, std::size_t n) {
    std::fill(p, p + n, T{});
  }
  void set_count(unsigned long long* p, std::uint64_t value) { *p = value; }
  static constexpr bool kCheapCounts = true;  // counts are in host memory
  std::optional<unsigned long long> known_count(const unsigned long long* p) const { return *p; }
  template <class T>
  std::vector<T> download(const Buffer<T>& b, std::size_t n) const {
    return std::vector<T>(b.get(), b.get() + n);
  }
  void start_timer() { t0_ = std::chrono::steady_clock::now(); }
  double stop_timer() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count(); }

  template <class F>
  void for_each(std::uint64_t n, const F& step) {
    run(n, step, kEvenGrain);
  }
  template <Balance B, class F>
  void for_each_counted(const unsigned long long* count, std::uint64_t /*max*/, const F& step) {
    run(*count, step, B == Balance::Even ? kEvenGrain : 1);
  }

 private:
  // Items of equal cost (one pair test each) go to TBB in chunks of kEvenGrain; a loop shorter
  // than that runs on the calling thread. Uneven items (subtree traversals) go one at a time.
  static constexpr std::uint64_t kEvenGrain = 32;
  template <class F>
  void run(std::uint64_t n, const F& step, std::uint64_t grain) {
    if (n == 0) return;
    if (n <= grain && grain > 1) {
      for (std::uint64_t i = 0; i < n; ++i) step(i);
      return;
    }
    arena_->execute([&] {
      tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, n, grain), [&](const auto& r) {
        for (std::uint64_t i = r.begin(); i != r.end(); ++i) step(i);
      });
    });
  }
  tbb::task_arena* arena_ = nullptr;
  std::chrono::steady_clock::time_point t0_{};
};

}  // namespace kdopcd::cuda
