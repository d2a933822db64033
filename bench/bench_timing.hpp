#pragma once
// Timing of the benchmark programs: seconds per call of a function, measured in calibrated batches.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kdopcd::bench {

// Where the results of timed calls go, so that the compiler keeps the calls.
inline volatile std::size_t g_sink = 0;

// Thread CPU time: waiting for a core on a shared machine does not count.
inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

inline double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Seconds per call of f (returning a number, summed into g_sink) on `clock` (thread_cpu_seconds or
// wall_seconds): the repeat count is calibrated so that one batch lasts batch_ms; the median of
// `batches` batches.
template <class Clock, class F>
double time_call(Clock clock, F&& f, double batch_ms, int batches) {
  auto batch = [&](std::int64_t reps) {
    const double t0 = clock();
    for (std::int64_t i = 0; i < reps; ++i) g_sink = g_sink + f();
    return clock() - t0;
  };
  std::int64_t reps = 1;
  double t = batch(1);
  while (t < batch_ms * 1e-3 && reps < (std::int64_t(1) << 30)) {
    reps = std::max<std::int64_t>(reps * 2, std::int64_t(double(reps) * 1.2 * batch_ms * 1e-3 / std::max(t, 1e-9)));
    t = batch(reps);
  }
  std::vector<double> per;
  for (int b = 0; b < batches; ++b) per.push_back(batch(reps) / double(reps));
  std::sort(per.begin(), per.end());
  return per[per.size() / 2];
}

}  // namespace kdopcd::bench
