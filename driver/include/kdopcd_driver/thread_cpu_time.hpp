#pragma once
// CPU time of the calling thread, for simulation speeds "on one core": unlike wall-clock time it
// does not grow when other processes share the core, so a speed measured on a busy build machine
// is the speed the simulator has on a core of its own.
#include <ctime>

namespace kdopcd::driver {

inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

}  // namespace kdopcd::driver
