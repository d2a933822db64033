#pragma once
// What the SystemC shell (accel.cpp) sees of a core: one tick per rising clock edge and the
// top-level signals it drives. The paper core and the v2 accelerator both implement it.
#include <cstdint>

#include "kdopcd/traversal.hpp"

namespace kdopcd::model {

struct TopSignals {
  bool busy = false, done = false, error = false;
  bool contact_valid = false;
  ContactPair contact{};
  std::uint32_t stack_depth = 0;  // pair stack / pending set occupancy (engine 0 in v2)
  std::uint64_t pair_tests = 0;   // all engines
};

class ClockedCore {
 public:
  virtual ~ClockedCore() = default;
  virtual void tick() = 0;
  virtual bool busy() const = 0;
  virtual TopSignals signals() const = 0;
  // True when the host must act before the next clock (the v2 accelerator's query queue runs
  // low): the shell then pauses the simulation, the host serves the core and resumes it.
  virtual bool needs_host() const { return false; }
};

}  // namespace kdopcd::model
